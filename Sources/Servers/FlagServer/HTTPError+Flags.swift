import CourierHTTP

extension HTTPError.Code {
    /// 422: a flag or segment definition does not validate; nothing was stored or served.
    public static let invalidDefinition = HTTPError.Code("invalid_definition", status: 422)
    /// 412: the request's `If-Match` names a version of the environment other than the stored
    /// one: it changed since the caller read it; nothing was stored.
    public static let environmentChanged = HTTPError.Code("environment_changed", status: 412)
}
