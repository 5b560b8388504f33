/// The OpenAPI 3.1 contract of every HTTP route `courier-server` mounts, served at `/openapi.json`
/// (`OpenAPIRoute`). It is kept by hand beside the code, one file per part of the server
/// (`OpenAPIDocument+Analytics.swift`…); `OpenAPIContractTests` (in MessengerServerTests) sends
/// real requests to a real `courier-server` and validates each request and answer against it with
/// Python's `openapi-core`, so a route that changes without it fails.
enum OpenAPIDocument {
    /// One part of the server's routes: its `paths` members and the schemas only it uses, each
    /// as JSON object members without the braces.
    struct Section {
        let paths: String
        let schemas: String
    }

    /// The sections, in the order their paths appear in the document.
    static let sections = [operations, analytics, console, flags, sync, messenger]

    /// The document, as JSON.
    static let json: String = {
        let paths = sections.map(\.paths).filter { !$0.isEmpty }.joined(separator: ",\n")
        let schemas = (sections.map(\.schemas) + [sharedSchemas]).filter { !$0.isEmpty }.joined(separator: ",\n")
        return "{\n" + head + ",\n\"paths\": {\n" + paths + "\n},\n\"components\": {\n\"schemas\": {\n" + schemas
            + "\n},\n" + otherComponents + "\n}\n}\n"
    }()
}
