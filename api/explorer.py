"""The explorer page at `/` and its static files at `/static` (shipped in the package, no CDN).

The page is plain HTML, CSS and JavaScript modules (no build step), with cytoscape vendored from
its npm package under `static/vendor/cytoscape/` with its licence. The Content-Security-Policy
lets the page load and call nothing but this origin, so a stray outside URL fails loudly.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).resolve().parent / "static"
CSP = ("default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
       "style-src 'self' 'unsafe-inline'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "frame-ancestors 'none'")
"""Cytoscape sets element styles from script, hence 'unsafe-inline' for styles only."""


def install_explorer(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False)
    def explorer() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html",
                            headers={"Content-Security-Policy": CSP, "Cache-Control": "no-cache"})
