import Foundation
import Messenger

/// How the CLI carries an attachment pointer inside a message's text: the caption, a line with
/// `marker`, then the pointer as JSON. The whole text is end-to-end encrypted.
enum AttachmentInBody {
    /// Starts the line that holds the pointer.
    static let marker = "\n\u{1F4CE}attachment:"

    /// The text to send: the caption, then the pointer.
    static func body(caption: String, pointer: AttachmentPointer) throws -> String {
        caption + marker + String(decoding: try JSONEncoder().encode(pointer), as: UTF8.self)
    }

    /// The caption and the pointer of a message's text (no pointer when there is none or it
    /// does not decode).
    static func split(_ body: String) -> (caption: String, pointer: AttachmentPointer?) {
        guard let range = body.range(of: marker) else { return (body, nil) }
        let json = Data(body[range.upperBound...].utf8)
        return (String(body[..<range.lowerBound]), try? JSONDecoder().decode(AttachmentPointer.self, from: json))
    }
}

extension Message {
    /// The text without an attachment pointer.
    var caption: String { AttachmentInBody.split(body).caption }
    /// The attachment pointer the message carries, if any.
    var attachmentPointer: AttachmentPointer? { AttachmentInBody.split(body).pointer }
}
