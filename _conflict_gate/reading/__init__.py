"""One page -> what a reader sees -> claims: inlines, blocks, raw HTML, each site's reading, the renderers, the reader."""
