"""The command line: its support, the subcommands, findings for CI."""
