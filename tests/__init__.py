"""toolreg's tests."""


def accept_any(**arguments):
    """A handler that takes whatever arguments a schema allows, for tests about something else."""
    return arguments
