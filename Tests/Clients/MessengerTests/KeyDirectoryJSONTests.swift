import CourierCore
import CourierHTTP
import SignalProtocol
import Testing

@testable import Messenger

struct KeyDirectoryJSONTests {
    @Test func anUploadParsesBackIntoBundles() throws {
        let identity = try IdentityKeyPair.generate()
        let signed = try SignedPreKeyRecord.generate(identity: identity, id: 3, timestamp: 0)
        let preKeys = try KeyHelper.generatePreKeys(start: 0, count: 2)
        let upload = KeyDirectoryJSON.upload(identity: identity.identityKey, signedPreKey: signed, preKeys: preKeys)
        let answer: JSONValue = [
            "identityKey": try #require(upload["identityKey"]),
            "devices": [
                [
                    "deviceId": 2, "registrationId": 77, "signedPreKey": try #require(upload["signedPreKey"]),
                    "preKey": try #require(upload["preKeys"]?.arrayValue?.first),
                ],
                ["deviceId": 3, "registrationId": 78],
            ],
        ]
        let bundles = try KeyDirectoryJSON.bundles(answer)
        #expect(bundles.count == 1, "a device without a signed prekey is left out")
        #expect(bundles[0].deviceId == 2 && bundles[0].preKeyId == preKeys[0].id)
        #expect(bundles[0].identityKey == identity.identityKey)
        #expect(bundles[0].signedPreKey == signed.keyPair.publicKey)
    }

    @Test(arguments: [
        #"{"devices":[]}"#,
        #"{"identityKey":"AAAA","devices":[]}"#,
        #"{"identityKey":"KEY","devices":[{"deviceId":1,"registrationId":1,"signedPreKey":{"keyId":1,"publicKey":"AAAA","signature":"AA=="}}]}"#,
        #"{"identityKey":"KEY","devices":[{"deviceId":1,"registrationId":1,"signedPreKey":{"keyId":1,"publicKey":"KEY","signature":"AA=="},"preKey":{"keyId":1}}]}"#,
    ])
    func malformedDirectoryAnswersAreRefused(_ text: String) throws {
        let key = Base64.encode(try IdentityKeyPair.generate().identityKey.serialized)
        let json = try JSONParser.parse(Array(text.replacingOccurrences(of: "KEY", with: key).utf8))
        #expect(throws: MessengerClientError.self) { try KeyDirectoryJSON.bundles(json) }
    }
}
