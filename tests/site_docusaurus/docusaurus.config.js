// The small Docusaurus site tests/test_site_build_docusaurus.py builds (its pages are written by the test).
/** @type {import('@docusaurus/types').Config} */
const config = {
  title: 'Injected',
  url: 'https://example.com',
  baseUrl: '/',
  onBrokenLinks: 'ignore',
  // The test writes translations: i18n/fr (built in build/fr) and one page's i18n/en copy.
  i18n: {defaultLocale: 'en', locales: ['en', 'fr']},
  presets: [
    [
      'classic',
      {
        docs: {
          routeBasePath: 'docs',
          path: 'docs',
          // The test writes versions.json (1.0, 0.9, 0.8) and versioned_docs/: 1.0 is the last version (at
          // docs/), 0.9 is routed at docs/old, 0.8 is not built, the current version is at docs/next.
          onlyIncludeVersions: ['current', '1.0', '0.9'],
          versions: {'0.9': {path: 'old'}},
        },
        blog: false,
      },
    ],
  ],
};

module.exports = config;
