import Sim

/// The decoder's entry points for a line given as bytes or as a string (no newline): for
/// tools and tests; readers hand it buffers.
extension TraceLineDecoder {
    /// Decodes a header line given as bytes.
    public mutating func decodeHeader(_ line: [UInt8]) throws(TraceLineError) -> TraceHeader {
        try Self.withBuffer(line) { buffer throws(TraceLineError) in try decodeHeader(buffer) }
    }

    /// Decodes a header line given as a string.
    public mutating func decodeHeader(_ line: String) throws(TraceLineError) -> TraceHeader {
        try decodeHeader(Array(line.utf8))
    }

    /// Decodes an event line given as bytes.
    public mutating func decodeEvent(_ line: [UInt8]) throws(TraceLineError) -> TraceEvent {
        try Self.withBuffer(line) { buffer throws(TraceLineError) in try decodeEvent(buffer) }
    }

    /// Decodes an event line given as a string.
    public mutating func decodeEvent(_ line: String) throws(TraceLineError) -> TraceEvent {
        try decodeEvent(Array(line.utf8))
    }

    /// Decodes a line after the header given as a string.
    public mutating func decodeLine(_ line: String) throws(TraceLineError) -> TraceLine {
        try Self.withBuffer(Array(line.utf8)) { buffer throws(TraceLineError) in try decodeLine(buffer) }
    }

    /// `body`'s result for the bytes of `line`, its typed error passed on.
    private static func withBuffer<Value>(_ line: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> Value)
        throws(TraceLineError) -> Value {
        let result: Result<Value, TraceLineError> = line.withUnsafeBufferPointer { buffer in
            Result { () throws(TraceLineError) in try body(buffer) }
        }
        return try result.get()
    }
}
