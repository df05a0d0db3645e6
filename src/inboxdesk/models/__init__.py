"""Pydantic models of the API contract, shared by server, client and app.

Names are imported from their modules when first used: `from inboxdesk.models import
Region` must not build every model, since start-up needs only a few of them.
"""

import lazy_loader

# Each name is imported from its module when first used; __init__.pyi lists them.
__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
