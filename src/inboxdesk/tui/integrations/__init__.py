"""The integrations view: the organization's integrations by environment."""
