extension JSONBytes {
    /// Decodes the validated string content `bytes[start..<end]` (escapes included) into
    /// `output`; returns the number of bytes written. Handles JSON5's escapes, a superset of
    /// JSON's: `\v`, `\0`, `\xHH`, line continuations, and any other character standing for
    /// itself.
    ///
    /// Escapes only ever shrink the text: `\uXXXX` (6 bytes) is at most 3 bytes of UTF-8, a
    /// surrogate pair (12 bytes) is 4, `\xHH` (4 bytes) at most 2, so `end - start` bytes of
    /// output are always enough.
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                         into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var i = start
        var o = 0
        @inline(__always) func emit(_ scalar: UInt32) {
            for unit in UTF8.encode(UnicodeScalar(scalar)!)! {
                output[o] = unit
                o += 1
            }
        }
        while i < end {
            let byte = bytes[i]
            guard byte == backslash else {
                output[o] = byte
                o += 1
                i += 1
                continue
            }
            let escape = bytes[i + 1]
            i += 2
            let simple: UInt8
            switch escape {
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "v"): simple = 0x0B
            case UInt8(ascii: "0"): simple = 0x00
            case UInt8(ascii: "u"):
                var scalar = hex4(bytes, i)!
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = hex4(bytes, i + 2)!
                    i += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                emit(scalar)
                continue
            case UInt8(ascii: "x"):
                emit(hexValue(bytes[i])! << 4 | hexValue(bytes[i + 1])!)
                i += 2
                continue
            case 0x0A:
                continue // a line continuation
            case 0x0D:
                if i < end && bytes[i] == 0x0A { i += 1 } // across "\r\n"
                continue
            case 0xE2 where isLineSeparator(bytes, i - 1):
                i += 2 // a line continuation across U+2028 or U+2029
                continue
            default:
                // '"', '\\', '/' and, in JSON5, any other character stand for themselves.
                output[o] = escape
                o += 1
                continue
            }
            output[o] = simple
            o += 1
        }
        return o
    }
}
