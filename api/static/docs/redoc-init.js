// ReDoc over this service's own OpenAPI document, from the vendored standalone bundle.
window.addEventListener("load", () => {
  Redoc.init("/openapi.json", { hideDownloadButton: false }, document.getElementById("redoc"));
});
