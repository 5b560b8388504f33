import CourierHTTP

extension HTTPError.Code {
    /// 422: a flag or segment definition does not validate; nothing was stored or served.
    public static let invalidDefinition = HTTPError.Code("invalid_definition", status: 422)
}
