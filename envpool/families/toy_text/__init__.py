"""gymnasium's toy-text tasks, module ``envpool._toy_text``: ``tasks`` is the task table."""
