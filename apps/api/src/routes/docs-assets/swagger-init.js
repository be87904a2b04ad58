// Loaded by /docs; kept out of the page so the Content-Security-Policy can forbid inline scripts.
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // The default validator badge would send the document to an outside service.
  validatorUrl: null,
  tryItOutEnabled: false,
});
