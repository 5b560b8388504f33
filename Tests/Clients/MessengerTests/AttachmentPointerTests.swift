import CourierCore
import CourierHTTP
import Foundation
import SignalProtocol
import Testing

@testable import Messenger

struct AttachmentPointerTests {
    let id = String(repeating: "0123456789abcdef", count: 4)

    @Test func jsonRoundTripKeepsEveryFieldAndDescriptionHidesTheKey() throws {
        let key = try AttachmentCipher.generateKey()
        let pointer = try AttachmentPointer(
            id: id, key: key, digest: [UInt8](repeating: 7, count: 32), size: 1_234, contentType: "image/png",
            fileName: "plan.png")
        let data = try JSONEncoder().encode(pointer)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["id"] as? String == id)
        #expect((json["key"] as? String).flatMap(Base64.decode) == key.unsafeCopiedBytes)
        #expect(json["size"] as? Int == 1_234)
        #expect(json["contentType"] as? String == "image/png")
        #expect(json["fileName"] as? String == "plan.png")
        #expect(try JSONDecoder().decode(AttachmentPointer.self, from: data) == pointer)
        #expect(!pointer.description.contains(Base64.encode(key.unsafeCopiedBytes)))
        let anonymous = try AttachmentPointer(
            id: id, key: key, digest: pointer.digest, size: 1, contentType: "text/plain")
        let decoded = try JSONDecoder().decode(AttachmentPointer.self, from: JSONEncoder().encode(anonymous))
        #expect(decoded.fileName == nil)
    }

    @Test(arguments: [
        ("id with a path", #"{"id":"../messenger.sqlite","key":"KEY","digest":"DIGEST","size":1,"contentType":"a"}"#),
        ("short key", #"{"id":"ID","key":"AAAA","digest":"DIGEST","size":1,"contentType":"a"}"#),
        ("key not base64", #"{"id":"ID","key":"%%%","digest":"DIGEST","size":1,"contentType":"a"}"#),
        ("short digest", #"{"id":"ID","key":"KEY","digest":"AAAA","size":1,"contentType":"a"}"#),
        ("negative size", #"{"id":"ID","key":"KEY","digest":"DIGEST","size":-1,"contentType":"a"}"#),
        ("missing size", #"{"id":"ID","key":"KEY","digest":"DIGEST","contentType":"a"}"#),
    ])
    func malformedPointersAreRefused(name: String, template: String) throws {
        let json = template.replacingOccurrences(of: "\"ID\"", with: "\"\(id)\"")
            .replacingOccurrences(of: "KEY", with: Base64.encode([UInt8](repeating: 1, count: 64)))
            .replacingOccurrences(of: "DIGEST", with: Base64.encode([UInt8](repeating: 2, count: 32)))
        #expect(throws: (any Error).self, "\(name)") {
            try JSONDecoder().decode(AttachmentPointer.self, from: Data(json.utf8))
        }
    }

    @Test func theWellFormedTemplateDecodes() throws {
        let json =
            #"{"id":"\#(id)","key":"\#(Base64.encode([UInt8](repeating: 1, count: 64)))","digest":"\#(Base64.encode([UInt8](repeating: 2, count: 32)))","size":1,"contentType":"a"}"#
        #expect(try JSONDecoder().decode(AttachmentPointer.self, from: Data(json.utf8)).size == 1)
    }

    @Test(arguments: [0, 1, 15, 16, 540, 541, 542, 1_000, 65_536, 300_000, 1_048_577])
    func encryptedLengthIsTheCiphersOutputLength(size: Int) throws {
        let sealed = try AttachmentCipher.encrypt(
            [UInt8](repeating: 9, count: size), key: AttachmentCipher.generateKey())
        #expect(AttachmentCipher.encryptedLength(forPlaintextLength: size) == sealed.blob.count)
    }
}
