/// A protocol-buffer encoder: the wire format by hand, for the few messages the Perfetto trace
/// needs (keysim fetches no packages, and the encoding is small).
///
/// Fields are appended in the order the caller writes them; a nested message is written into a
/// writer of its own and appended length-delimited. Write fields in ascending field-number
/// order and a message comes out byte for byte as protobuf's own serializers write it.
///
/// - Complexity: every method is O(bytes written).
struct ProtobufWriter {
    /// The wire types of the protobuf encoding.
    enum WireType: UInt8 {
        /// int32, int64, uint32, uint64, sint32, sint64, bool, enum.
        case varint = 0
        /// fixed64, sfixed64, double.
        case fixed64 = 1
        /// string, bytes, embedded messages, packed repeated fields.
        case lengthDelimited = 2
        /// fixed32, sfixed32, float.
        case fixed32 = 5
    }

    /// The encoded bytes so far.
    private(set) var bytes: [UInt8] = []

    /// Field numbers go up to 2^29 − 1 (the tag's three low bits are the wire type).
    static let fieldNumberMax: UInt32 = (1 << 29) - 1

    /// Appends `value` as a base-128 varint, least significant group first.
    mutating func appendVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends the tag of field `number` with `wireType`.
    mutating func appendTag(_ number: UInt32, _ wireType: WireType) {
        precondition(number >= 1 && number <= Self.fieldNumberMax, "protobuf field numbers are 1…2^29−1")
        appendVarint(UInt64(number) << 3 | UInt64(wireType.rawValue))
    }

    /// An unsigned varint field (`uint32`, `uint64`, enums).
    mutating func uint(_ number: UInt32, _ value: UInt64) {
        appendTag(number, .varint)
        appendVarint(value)
    }

    /// A signed varint field (`int32`, `int64`): two's complement, so a negative value takes
    /// ten bytes, as protobuf writes it.
    mutating func int(_ number: UInt32, _ value: Int64) {
        uint(number, UInt64(bitPattern: value))
    }

    /// A zigzag varint field (`sint32`, `sint64`): small magnitudes of either sign stay short.
    mutating func sint(_ number: UInt32, _ value: Int64) {
        uint(number, Self.zigzag(value))
    }

    /// A `bool` field.
    mutating func bool(_ number: UInt32, _ value: Bool) {
        uint(number, value ? 1 : 0)
    }

    /// A `fixed64` field: eight bytes, little-endian.
    mutating func fixed64(_ number: UInt32, _ value: UInt64) {
        appendTag(number, .fixed64)
        appendLittleEndian(value)
    }

    /// A `double` field: its IEEE 754 bits, little-endian.
    mutating func double(_ number: UInt32, _ value: Double) {
        fixed64(number, value.bitPattern)
    }

    /// A `string` field, UTF-8.
    mutating func string(_ number: UInt32, _ value: String) {
        lengthDelimited(number, Array(value.utf8))
    }

    /// A `bytes` field, or an already encoded message.
    mutating func lengthDelimited(_ number: UInt32, _ payload: [UInt8]) {
        appendTag(number, .lengthDelimited)
        appendVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// An embedded message, written by `body` into a writer of its own.
    mutating func message(_ number: UInt32, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        body(&nested)
        lengthDelimited(number, nested.bytes)
    }

    /// A packed repeated varint field: one tag, the length, then the varints. Nothing is
    /// written for no values (an empty packed field and an absent one decode alike).
    mutating func packedUInts(_ number: UInt32, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        var payload = ProtobufWriter()
        for value in values { payload.appendVarint(value) }
        lengthDelimited(number, payload.bytes)
    }

    /// A packed repeated `fixed64` field.
    mutating func packedFixed64s(_ number: UInt32, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        var payload = ProtobufWriter()
        for value in values { payload.appendLittleEndian(value) }
        lengthDelimited(number, payload.bytes)
    }

    /// Appends eight bytes, least significant first.
    private mutating func appendLittleEndian(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// ZigZag encoding: 0, −1, 1, −2, … map to 0, 1, 2, 3, ….
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }
}
