/// Conversions of validated strict number tokens; JSON5 numbers are read by `JSONNumber.json5`.
enum JSONNumber {
    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The exponent of a number token, or 0; saturates at ±1,000,000 (far beyond any double).
    private static func exponent(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var i = start
        var negative = false
        if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var value = 0
        while i < end {
            value = min(1_000_000, value * 10 + Int(bytes[i] - UInt8(ascii: "0")))
            i += 1
        }
        return negative ? -value : value
    }

    /// The parts of a validated number token: its sign, its mantissa (digits and point), the
    /// number of digits after the point, and its explicit exponent (0 without one).
    private static func parts(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        -> (negative: Bool, mantissa: Range<Int>, fractionDigits: Int, exponent: Int) {
        let negative = bytes[range.lowerBound] == UInt8(ascii: "-")
        let start = negative ? range.lowerBound + 1 : range.lowerBound
        var end = start
        var fractionDigits = 0
        var inFraction = false
        while end < range.upperBound {
            let byte = bytes[end]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if JSONBytes.isDigit(byte) {
                if inFraction { fractionDigits += 1 }
            } else {
                break
            }
            end += 1
        }
        let exponent = end < range.upperBound ? exponent(bytes, from: end + 1, to: range.upperBound) : 0
        return (negative, start..<end, fractionDigits, exponent)
    }

    /// The nearest double to a validated number token.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double {
        let number = parts(bytes, range)
        var mantissa: UInt64 = 0
        var significantDigits = 0
        for i in number.mantissa where bytes[i] != UInt8(ascii: ".") {
            let digit = UInt64(bytes[i] - UInt8(ascii: "0"))
            guard mantissa != 0 || digit != 0 else { continue }
            // More than 19 significant digits do not fit a UInt64: take the slow path.
            guard significantDigits < 19 else { return slowDouble(bytes, range) }
            mantissa = mantissa * 10 + digit
            significantDigits += 1
        }
        let exponent10 = number.exponent - number.fractionDigits
        let magnitude: Double
        if mantissa == 0 {
            magnitude = 0
        } else if mantissa <= 1 << 53 && (-22...22).contains(exponent10) {
            // Clinger's fast path: both operands are exact, so the one rounding is correct.
            let value = Double(mantissa)
            magnitude = exponent10 >= 0 ? value * exactPowersOfTen[exponent10]
                                        : value / exactPowersOfTen[-exponent10]
        } else {
            return slowDouble(bytes, range)
        }
        return number.negative ? -magnitude : magnitude
    }

    /// The standard library's correctly rounded conversion (strtod), for the rare hard cases.
    private static func slowDouble(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard let value = Double(text) else {
            preconditionFailure("a validated JSON number was rejected by Double(_:): \(text)")
        }
        return value
    }

    /// A validated plain-integer token as an `Int`, or nil when it does not fit.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let negative = bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var value = 0
        while i < range.upperBound {
            let digit = Int(bytes[i] - UInt8(ascii: "0"))
            // Accumulate towards the sign so that Int.min is representable.
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit)
                                             : times10.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
            i += 1
        }
        return value
    }

    /// value × 10^decimalShift rounded half away from zero, exactly, or nil past `magnitudeMax`.
    static func scaled(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                       decimalShift: Int, magnitudeMax: Int64) -> Int64? {
        let (negative, mantissa, fractionDigits, explicitExponent) = parts(bytes, range)
        let mantissaEnd = mantissa.upperBound
        // The significant digits D (leading zeros and the point skipped): value = D × 10^scale.
        var first = mantissa.lowerBound
        while first < mantissaEnd && (bytes[first] == UInt8(ascii: "0") || bytes[first] == UInt8(ascii: ".")) {
            first += 1
        }
        if first == mantissaEnd { return 0 }
        var significantDigits = 0
        for j in first..<mantissaEnd where bytes[j] != UInt8(ascii: ".") { significantDigits += 1 }
        let scale = decimalShift + explicitExponent - fractionDigits
        // Digits of D that land left of the decimal point after scaling.
        let integerDigits = significantDigits + scale
        if integerDigits > 19 { return nil } // at least 10^19 > Int64.max
        if integerDigits < 0 { return 0 }    // below 0.1: rounds to zero
        var result: UInt64 = 0
        var taken = 0
        var roundUp = false
        var j = first
        while j < mantissaEnd {
            let byte = bytes[j]
            j += 1
            if byte == UInt8(ascii: ".") { continue }
            let digit = UInt64(byte - UInt8(ascii: "0"))
            if taken < integerDigits {
                result = result * 10 + digit
                taken += 1
            } else {
                roundUp = digit >= 5 // only the first dropped digit decides half-away-from-zero
                break
            }
        }
        while taken < integerDigits {
            result *= 10
            taken += 1
        }
        if roundUp { result += 1 }
        guard result <= UInt64(magnitudeMax) else { return nil }
        return negative ? -Int64(result) : Int64(result)
    }
}
