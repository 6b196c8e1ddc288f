"""Live pages: the events a write publishes after it commits, fanned out to every app
server, and the Server-Sent Events streams a sheet page and a campaign page hold.

An event names what changed (a campaign's roll log, a character's version) and nothing
more: a stream wakes on it, reads what the viewer may see from the database, and tells
the page which ids are new; the page fetches them through the usual views.
"""
