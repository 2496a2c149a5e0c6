"""A module holding one registry, as ``toolreg serve tests.mcp_servers.catalog`` finds it."""

import toolreg

tools = toolreg.ToolRegistry()
tools.register(
    "text.shout",
    {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
        "additionalProperties": False,
    },
    lambda text: text.upper() + "!",
    description="Say it louder",
)
