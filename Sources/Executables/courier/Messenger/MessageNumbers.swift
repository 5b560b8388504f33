import Messenger

/// The numbers `courier chat` and `courier demo messenger` give messages: #1, #2, … per
/// conversation, counting only the messages a device holds. The server's sequence is not shown:
/// receipts travel in the conversation too and use up its numbers, so messages would read #1,
/// #4, #7.
enum MessageNumbers {
    /// How many of the conversation's messages `client` holds up to `seq`, as "#n".
    static func number(upTo seq: Int64?, in conversation: String, on client: MessengerClient) async throws -> String {
        guard let seq else { return "#?" }
        let messages = try await client.messages(in: conversation)
        return "#\(messages.filter { ($0.serverSeq ?? .max) <= seq }.count)"
    }

    /// A message's number in its conversation as `client` shows it.
    static func number(of message: Message, on client: MessengerClient) async throws -> String {
        try await number(upTo: message.serverSeq, in: message.conversationId, on: client)
    }

    /// `event`'s line (`IncomingEvent.line`) with these numbers in place of the server's.
    static func line(for event: IncomingEvent, names: [String: String], on client: MessengerClient) async throws
        -> String
    {
        let line = event.line(names: names)
        switch event {
        case .message(let message):
            return try await number(of: message, on: client) + line.drop { $0 != " " }
        case .receipt(let kind, let conversation, let upToSeq, let reader):
            let number = try await number(upTo: upToSeq, in: conversation, on: client)
            return "receipt: \(kind) up to \(number) by \(names[reader] ?? reader)"
        default:
            return line
        }
    }
}
