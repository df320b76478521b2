"""`/docs` (Swagger UI) and `/redoc` (ReDoc) from files this service ships, never a CDN.

FastAPI's own pages load their scripts and styles from a CDN: a third party's code running on
the service's origin, and a blank page offline. Here both are vendored from their npm packages
(`npm pack swagger-ui-dist@5.35.0`, `npm pack redoc@2.5.4`, with their licences, under
`static/vendor/`, see its README), started by small scripts of ours (`static/docs/`), and the
pages carry a Content-Security-Policy that lets them load nothing but this origin.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

DOCS_CSP = ("default-src 'self'; script-src 'self'; connect-src 'self'; "
            "img-src 'self' data:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; "
            "worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
"""Both viewers set element styles from script ('unsafe-inline' for styles only); ReDoc runs its
search in a worker it makes from a blob."""

SWAGGER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} – API</title>
<link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css">
<link rel="icon" type="image/png" href="/static/vendor/swagger-ui/favicon-32x32.png">
</head><body><div id="swagger-ui"></div>
<script src="/static/vendor/swagger-ui/swagger-ui-bundle.js"></script>
<script src="/static/docs/swagger-init.js"></script>
</body></html>
"""

REDOC = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} – API</title>
<link rel="icon" type="image/png" href="/static/vendor/swagger-ui/favicon-32x32.png">
</head><body style="margin:0"><div id="redoc"></div>
<script src="/static/vendor/redoc/redoc.standalone.js"></script>
<script src="/static/docs/redoc-init.js"></script>
</body></html>
"""


def install_docs(app: FastAPI) -> None:
    """The two documentation pages (the app is made with `docs_url=None, redoc_url=None`)."""
    headers = {"Content-Security-Policy": DOCS_CSP, "Cache-Control": "no-cache"}

    @app.get("/docs", include_in_schema=False)
    def swagger() -> HTMLResponse:
        return HTMLResponse(SWAGGER.format(title=app.title), headers=headers)

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return HTMLResponse(REDOC.format(title=app.title), headers=headers)
