// Swagger UI over this service's own OpenAPI document, from the vendored bundle only: no
// validator badge (it would load an image from validator.swagger.io), nothing from outside.
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    validatorUrl: null,
    deepLinking: true,
    layout: "BaseLayout",
    presets: [SwaggerUIBundle.presets.apis],
  });
});
