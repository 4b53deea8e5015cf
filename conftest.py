"""Root conftest of the checkout. The qaconform pytest plugin is registered by the package's ``pytest11`` entry
point (pyproject.toml), so it loads wherever the kit is installed; nothing needs loading here."""
