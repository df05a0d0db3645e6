"""The local service: the API over real HTTP on SQLite.

Its modules are imported by name (`inboxdesk.server.app`, `.runner`, `.dblock`): the
package imports none of them, so that `serve` on a database in use is refused before
FastAPI and the routes are imported.
"""
