import Sim

/// The fast path for the lines the encoder writes for keys and backspaces.
extension TraceLineDecoder {
    /// The event of a line in the exact shape the encoder writes for key and backspace
    /// events, `{"t":…,"type":"key","text":"…"[,"up":…][,"x":…,"y":…]}` with no whitespace,
    /// plain decimal numbers and a text without escapes, decoded in one pass; `nil` for
    /// anything else, including every line that is not a valid event or whose event would be
    /// refused (time going backwards, touch-up before touch-down, empty text), so that the
    /// general path decides those and reports its exact errors. Does not touch `previousTime`.
    ///
    /// Every value it returns is exactly what `decodeEventGeneral` returns for the line.
    @inline(__always)
    func fastKeyEvent(_ line: UnsafeBufferPointer<UInt8>) -> TraceEvent? {
        guard let base = line.baseAddress else { return nil }
        let count = line.count
        // The shortest line taken, `{"t":0,"type":"backspace"}`, has 26 bytes.
        guard count >= 26, count <= Self.maxLineBytes, base[count - 1] == UInt8(ascii: "}") else { return nil }
        let raw = UnsafeRawPointer(base)
        // `{"t":` then `,"type":"`.
        guard raw.loadUnaligned(as: UInt32.self) == FastBytes.openT, base[4] == UInt8(ascii: ":") else { return nil }
        var i = 5
        // `count - 1` is the closing brace, so no scan below can run past the line.
        let last = count - 1
        guard let nanos = FastBytes.milliseconds(base, &i, last, max: nanosMax) else { return nil }
        let time = SimTime(nanoseconds: nanos)
        if let previousTime, time < previousTime { return nil }
        guard i + 9 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == FastBytes.commaType,
              base[i + 8] == UInt8(ascii: "\"") else { return nil }
        i += 9
        var text: String?
        if i + 4 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt32.self) == FastBytes.keyQuote {
            i += 4
            // `,"text":"` then the text up to its closing quote.
            guard i + 9 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == FastBytes.commaText,
                  base[i + 8] == UInt8(ascii: "\"") else { return nil }
            i += 9
            let start = i
            var nonASCII = false
            while i < last {
                let byte = base[i]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte >= 0x80 { nonASCII = true }
                i += 1
            }
            guard i < last, i > start else { return nil }
            if nonASCII, JSONBytes.firstInvalidUTF8(line, start, i) != nil { return nil }
            text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
            i += 1
        } else if i + 10 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == FastBytes.backspac,
                  base[i + 8] == UInt8(ascii: "e"), base[i + 9] == UInt8(ascii: "\"") {
            i += 10
        } else {
            return nil
        }
        var touchUp: SimTime?
        if i + 6 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt32.self) == FastBytes.commaQuoteUp,
           base[i + 4] == UInt8(ascii: "\""), base[i + 5] == UInt8(ascii: ":") {
            i += 6
            guard let upNanos = FastBytes.milliseconds(base, &i, last, max: nanosMax), upNanos >= nanos else { return nil }
            touchUp = SimTime(nanoseconds: upNanos)
        }
        var point: TouchPoint?
        if i + 5 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt32.self) == FastBytes.commaX,
           base[i + 4] == UInt8(ascii: ":") {
            i += 5
            guard let x = FastBytes.double(base, &i, last),
                  i + 5 <= last, raw.loadUnaligned(fromByteOffset: i, as: UInt32.self) == FastBytes.commaY,
                  base[i + 4] == UInt8(ascii: ":") else { return nil }
            i += 5
            guard let y = FastBytes.double(base, &i, last) else { return nil }
            point = TouchPoint(x: x, y: y)
        }
        guard i == last else { return nil }
        if let text {
            return TraceEvent(time: time, kind: .key(text: text, touchUp: touchUp, point: point))
        }
        return TraceEvent(time: time, kind: .backspace(touchUp: touchUp, point: point))
    }
}

extension TraceLineDecoder {
    /// Byte patterns and number scanners of `TraceLineDecoder.fastKeyEvent`.
    enum FastBytes {
        /// Little-endian words of the fixed parts of a key line.
        /// (Literals, not computed statics: a lazily initialised static costs a `swift_once`
        /// check on every line. `TraceFastPathTests` would fail on a wrong one: the fast path would take no line.)
        static var openT: UInt32 { (0x2274_227B as UInt32).littleEndian }             // {"t"
        static var keyQuote: UInt32 { (0x2279_656B as UInt32).littleEndian }          // key"
        static var commaQuoteUp: UInt32 { (0x7075_222C as UInt32).littleEndian }      // ,"up
        static var commaX: UInt32 { (0x2278_222C as UInt32).littleEndian }            // ,"x"
        static var commaY: UInt32 { (0x2279_222C as UInt32).littleEndian }            // ,"y"
        static var commaType: UInt64 { (0x3A22_6570_7974_222C as UInt64).littleEndian } // ,"type":
        static var commaText: UInt64 { (0x3A22_7478_6574_222C as UInt64).littleEndian } // ,"text":
        static var backspac: UInt64 { (0x6361_7073_6B63_6162 as UInt64).littleEndian }  // backspac

        @inline(__always) static func digit(_ byte: UInt8) -> Int64? {
            let value = byte &- UInt8(ascii: "0")
            return value < 10 ? Int64(value) : nil
        }

        /// A plain non-negative number of milliseconds at `i` (`0` or `[1-9][0-9]{0,11}`, then
        /// optionally `.` and 1–6 digits), as exact nanoseconds at most
        /// `TraceLineDecoder.timeNanosMax`; `i` ends after it. `nil` for anything else (a sign, an
        /// exponent, more digits, a leading zero) so that the general path decides. The byte at
        /// `last` is not a digit or `.`, which ends every scan.
        @inline(__always)
        static func milliseconds(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ last: Int, max: Int64) -> Int64? {
            var j = i
            guard var whole = digit(base[j]) else { return nil }
            j += 1
            if whole != 0 {
                while let d = digit(base[j]) {
                    whole = whole &* 10 &+ d
                    j += 1
                    if j - i > 12 { return nil }
                }
            }
            var nanos = whole &* 1_000_000
            if base[j] == UInt8(ascii: ".") {
                j += 1
                var scale: Int64 = 100_000
                guard let first = digit(base[j]) else { return nil }
                nanos &+= first &* scale
                j += 1
                while let d = digit(base[j]) {
                    guard scale > 1 else { return nil }
                    scale /= 10
                    nanos &+= d &* scale
                    j += 1
                }
            }
            guard j <= last, base[j] | 0x20 != UInt8(ascii: "e"), nanos <= max else { return nil }
            i = j
            return nanos
        }

        /// 10^`n` for 0...15, all exact in a `Double`.
        @inline(__always) private static func powerOfTen(_ n: Int) -> Double {
            switch n {
            case 0: 1e0
            case 1: 1e1
            case 2: 1e2
            case 3: 1e3
            case 4: 1e4
            case 5: 1e5
            case 6: 1e6
            case 7: 1e7
            case 8: 1e8
            case 9: 1e9
            case 10: 1e10
            case 11: 1e11
            case 12: 1e12
            case 13: 1e13
            case 14: 1e14
            default: 1e15
            }
        }

        /// A plain decimal number at `i` (`-?(0|[1-9][0-9]*)(\.[0-9]+)?`, at most 15 digits in
        /// all, no exponent) as the same `Double` `JSONNumber.double` gives; `i` ends after it.
        /// `nil` for anything else.
        @inline(__always)
        static func double(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ last: Int) -> Double? {
            var j = i
            let negative = base[j] == UInt8(ascii: "-")
            if negative { j += 1 }
            guard var mantissa = digit(base[j]) else { return nil }
            var digits = 1
            j += 1
            if mantissa != 0 {
                while let d = digit(base[j]) {
                    mantissa = mantissa &* 10 &+ d
                    digits += 1
                    j += 1
                }
            }
            var fractionDigits = 0
            if base[j] == UInt8(ascii: ".") {
                j += 1
                guard let first = digit(base[j]) else { return nil }
                mantissa = mantissa &* 10 &+ first
                fractionDigits = 1
                j += 1
                while let d = digit(base[j]) {
                    mantissa = mantissa &* 10 &+ d
                    fractionDigits += 1
                    j += 1
                }
                digits += fractionDigits
            }
            // 15 digits keep the mantissa below 2^53, so one division rounds correctly, as in
            // JSONNumber.double's fast path (which this mirrors, sign of zero included).
            guard digits <= 15, j <= last, base[j] | 0x20 != UInt8(ascii: "e") else { return nil }
            i = j
            let magnitude = mantissa == 0 ? 0 : Double(mantissa) / powerOfTen(fractionDigits)
            return negative ? -magnitude : magnitude
        }
    }
}
