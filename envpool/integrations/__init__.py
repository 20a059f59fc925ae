"""Adapters that hand envpool pools to training libraries (import the one you need)."""
