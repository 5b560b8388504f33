import Foundation

/// Writes one line to standard output at once (unbuffered), so a reader on a pipe sees each
/// step as it happens.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
