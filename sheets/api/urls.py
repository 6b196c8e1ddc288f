"""The HTTP API's routes, all under /api/ (sheets/api/views.py).

django-ninja's own routes, with two of ours in its namespace: /api/ itself answers the
index of the API (ninja's placeholder there, a 404 page, gives way to it under the same
name, which ninja reverses to know where the API sits), and every other address under
/api/ a JSON 404, not the site's HTML page.
"""

from __future__ import annotations

from django.urls import include, path, re_path

from sheets.api.views import api, index, not_found

_ninja, _app, _namespace = api.urls
ROUTES = [
    path("", index, name="api-root"),
    *(route for route in _ninja if getattr(route, "name", None) != "api-root"),
    re_path(r"^(?P<rest>.*)$", not_found, name="api-not-found"),
]

urlpatterns = [path("", include((ROUTES, _app), namespace=_namespace))]
