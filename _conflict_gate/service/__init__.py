"""A long-running gate and the MCP server."""
