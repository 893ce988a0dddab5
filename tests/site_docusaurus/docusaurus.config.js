// The small Docusaurus site tests/test_site_build_docusaurus.py builds (its pages are written by the test).
/** @type {import('@docusaurus/types').Config} */
const config = {
  title: 'Injected',
  url: 'https://example.com',
  baseUrl: '/',
  onBrokenLinks: 'ignore',
  presets: [
    [
      'classic',
      {
        docs: {routeBasePath: 'docs', path: 'docs'},
        blog: false,
      },
    ],
  ],
};

module.exports = config;
