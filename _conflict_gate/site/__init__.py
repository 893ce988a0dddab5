"""The site's own build as the judge: detecting the site, locating and reading its built pages, judging a corpus."""
