import HTTPMessages

/// `GET /openapi.json`: the document the API is tested against (docs/openapi.json), encoded once.
struct OpenAPIRoutes: RouteCollection {
    func register(in router: inout Router) {
        let openAPI = Array(OpenAPIDocument.json.utf8)
        router.add("GET", "/openapi.json") { _, _ in
            HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300"],
                body: openAPI)
        }
    }
}
