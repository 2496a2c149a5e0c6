"""MCP servers the tests run as child processes: ``python -m tests.mcp_servers.NAME ...``."""
