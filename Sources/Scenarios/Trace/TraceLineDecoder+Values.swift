import Sim

/// The values of fields: times, integers, coordinates and language tags, with their errors.
extension TraceLineDecoder {
    static func wrongType(_ token: JSONToken, _ name: String, expected: String) -> TraceLineError {
        TraceLineError(column: token.column, message: "\"\(name)\" must be \(expected), found \(token.kindDescription)")
    }

    /// Milliseconds → nanoseconds, exactly from the decimal digits; in 0...timeNanosMax.
    static func milliseconds(_ token: JSONToken, _ name: String,
                                     in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> Int64 {
        guard token.kind == .number else { throw wrongType(token, name, expected: "a number of milliseconds") }
        guard let nanos = token.scaledInteger(decimalShift: 6, magnitudeMax: timeNanosMax, in: line) else {
            throw TraceLineError(column: token.column,
                                 message: "\"\(name)\" \(token.sourceText(in: line)) ms is out of range (\(ValueLimits.durationLimitText))")
        }
        guard nanos >= 0 else {
            throw TraceLineError(column: token.column,
                                 message: "\"\(name)\" must not be negative (found \(token.sourceText(in: line)) ms)")
        }
        return nanos
    }

    static func integer(_ token: JSONToken, _ name: String, in line: UnsafeBufferPointer<UInt8>,
                                magnitudeMax: Int = Int.max) throws(TraceLineError) -> Int {
        guard token.kind == .number else { throw wrongType(token, name, expected: "an integer") }
        guard token.flag else {
            throw TraceLineError(column: token.column,
                                 message: "\"\(name)\" must be an integer, found \(token.sourceText(in: line))")
        }
        guard let value = token.integer(in: line), value.magnitude <= magnitudeMax.magnitude else {
            throw TraceLineError(column: token.column,
                                 message: "\"\(name)\" \(token.sourceText(in: line)) is out of range (magnitude at most \(magnitudeMax))")
        }
        return value
    }

    static func coordinate(_ token: JSONToken, _ name: String,
                                   in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> Double {
        guard token.kind == .number else { throw wrongType(token, name, expected: "a number of points") }
        let value = token.double(in: line)
        guard value.isFinite else {
            throw TraceLineError(column: token.column,
                                 message: "\"\(name)\" \(token.sourceText(in: line)) is out of range of a double")
        }
        return value
    }

    /// A BCP 47 language tag, checked for shape only: letters, then `-`-separated subtags of
    /// letters and digits ("en", "ru", "pt-BR", "zh-Hans-CN", "de-CH-1996").
    static func languageTag(_ token: JSONToken, in line: UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> String {
        guard token.kind == .string else { throw wrongType(token, "language", expected: "a string") }
        let tag = token.string(in: line)
        guard isLanguageTag(tag) else {
            throw TraceLineError(column: token.column,
                                 message: "\"language\" \(token.sourceText(in: line)) is not a BCP 47 language tag such as \"en\" or \"pt-BR\"")
        }
        return tag
    }

    /// Whether `tag` has the shape of a BCP 47 language tag.
    static func isLanguageTag(_ tag: String) -> Bool {
        let subtags = tag.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard tag.utf8.count <= 64, let primary = subtags.first,
              (2...8).contains(primary.count), primary.allSatisfy(isASCIILetter) else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.allSatisfy { isASCIILetter($0) || JSONBytes.isDigit($0) }
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
