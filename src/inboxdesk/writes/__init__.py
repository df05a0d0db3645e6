"""Every write the app and the command line send, through one outbox.

UI-free: the outbox hands its events to the app's subscribers, the command line prints
them. Names are imported from their modules when first used: the app's first frame
needs a write's model and effects, not the outbox, its events or its store.
"""

import lazy_loader

# Each name is imported from its module when first used; __init__.pyi lists them.
__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)
