// The small VitePress site tests/test_site_build_vitepress.py builds (copied to .vitepress/config.mjs;
// its pages are written by the test).
export default {
  title: 'Injected',
  cleanUrls: true,
  srcExclude: ['parts/**'],
}
