import CourierHTTP
import Testing

/// The console's session layer has work only on the admin API (routes under `/v1/` that admit no
/// browser origin): it leaves every other route out of its chain, so health, metrics and the
/// OpenAPI document stay answerable synchronously on the engine's loop beside it.
@Suite(.timeLimit(.minutes(1)))
struct SessionLayerScopeTests {
    @Test func theSessionLayerAppliesToTheAdminAPIOnly() throws {
        let harness = try ConsoleHarness(listening: false)
        defer { harness.stop() }
        let scoped = try #require(harness.console.middleware as? any RouteScopedMiddleware)
        #expect(scoped.applies(toRoute: "/v1/flags/{envKey}/definitions/{flagKey}", crossOrigin: .none))
        #expect(scoped.applies(toRoute: "/v1/projects", crossOrigin: .none))
        #expect(scoped.applies(toRoute: "/v1", crossOrigin: .none), "/v1 takes /v1/ too")
        #expect(scoped.applies(toRoute: "v1/projects", crossOrigin: .none), "a pattern written without its slash")
        #expect(scoped.applies(toRoute: "/{tenant}/projects", crossOrigin: .none), "a parameter may be v1")
        #expect(!scoped.applies(toRoute: "/v1/batch", crossOrigin: .anyOrigin))
        #expect(!scoped.applies(toRoute: "/healthz", crossOrigin: .none))
        #expect(!scoped.applies(toRoute: "/metrics", crossOrigin: .none))
        #expect(!scoped.applies(toRoute: "/openapi.json", crossOrigin: .anyOrigin))
        #expect(!scoped.applies(toRoute: "/v10/projects", crossOrigin: .none))
    }
}
