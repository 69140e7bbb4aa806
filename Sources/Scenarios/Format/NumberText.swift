import Foundation

/// Numbers as people read them: the one formatter every table, sentence and page of keysim
/// goes through, so that a figure is never printed in an exponent form (`1.5e-05`, let alone
/// the `1.5e-050` that padding one used to make) and never as a negative zero.
///
/// `fixed` rounds to the shown precision first and then writes the digits of that rounded
/// integer, so what is printed is exactly the value rounded to the places shown: the scaled
/// value is rounded half away from zero (`(x · 10ᵈ).rounded()`, as keysim always has), and a
/// value that rounds to zero prints as `0.00`, whatever its sign. Machine formats (JSON
/// numbers, SQLite) keep their own shortest round-trip text.
public enum NumberText {
    /// The most decimals a figure is shown with.
    public static let decimalsMax = 17

    /// The magnitude from which `shortest` writes the exponent form.
    public static let positionalLimit = 1e17

    /// `x` rounded to `decimals` places, in fixed point: `1234.50`, `0.000015`, `0.00` (for
    /// −0.001 too); `-` for NaN, `inf`/`-inf` for the infinities.
    /// - Precondition: 0 ≤ `decimals` ≤ `decimalsMax`.
    public static func fixed(_ x: Double, _ decimals: Int = 2) -> String {
        guard let (negative, digits) = roundedDigits(x, decimals) else { return x.isNaN ? "-" : (x > 0 ? "inf" : "-inf") }
        return (negative ? "-" : "") + digits
    }

    /// `x` as `fixed` writes it, with a `+` before a positive value, so that a difference
    /// reads as one: `+0.25`, `-1.50`, and `0.00` for anything that rounds to zero.
    public static func signed(_ x: Double, _ decimals: Int = 2) -> String {
        guard let (negative, digits) = roundedDigits(x, decimals) else { return x.isNaN ? "-" : (x > 0 ? "+inf" : "-inf") }
        let zero = digits.allSatisfy { $0 == "0" || $0 == "." }
        return (zero ? "" : negative ? "-" : "+") + digits
    }

    /// The shortest text that reads back as `x`, in positional notation: `5`, `0.5`,
    /// `0.00001`, `15000000000000000`; for bounds and settings shown as the user wrote them.
    /// From 10¹⁷ up (`positionalLimit`) it is the exponent form, `1e+20`: no setting or figure
    /// is that large, only a value an error message echoes back, and 300 digits would bury
    /// the message.
    public static func shortest(_ x: Double) -> String {
        guard x.isFinite else { return x.isNaN ? "-" : (x > 0 ? "inf" : "-inf") }
        if x == 0 { return "0" }
        if Swift.abs(x) >= positionalLimit { return "\(x)" }
        if x == x.rounded(), Swift.abs(x) < 1e15 { return String(Int64(x)) }
        let text = "\(x)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text }
        // Expand d.ddde±N: the mantissa's digits with the point moved N places.
        let mantissa = text[..<e]
        let exponent = Int(text[text.index(after: e)...])!
        let negative = mantissa.hasPrefix("-")
        let unsigned = negative ? mantissa.dropFirst() : mantissa
        let point = unsigned.firstIndex(of: ".")
        let whole = point.map { unsigned[..<$0] } ?? unsigned
        let fraction = point.map { unsigned[unsigned.index(after: $0)...] } ?? ""
        var digits = String(whole) + String(fraction)
        var pointAt = whole.count + exponent
        if pointAt <= 0 {
            digits = String(repeating: "0", count: 1 - pointAt) + digits
            pointAt = 1
        } else if pointAt > digits.count {
            digits += String(repeating: "0", count: pointAt - digits.count)
        }
        var result = String(digits.prefix(pointAt))
        let rest = digits.dropFirst(pointAt).reversed().drop { $0 == "0" }.reversed()
        if !rest.isEmpty { result += "." + String(rest) }
        return (negative ? "-" : "") + result
    }

    /// Whether `x` and the digits of |x| rounded to `decimals` places, point included; nil
    /// for NaN and the infinities.
    private static func roundedDigits(_ x: Double, _ decimals: Int) -> (negative: Bool, digits: String)? {
        precondition((0...decimalsMax).contains(decimals), "a figure has 0 to \(decimalsMax) decimals")
        guard x.isFinite else { return nil }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        guard Swift.abs(x) < 0x1p53 else {
            // A whole number already (every double from 2⁵³ up is): its exact digits, zero fraction.
            return (x < 0, String(format: "%.0f", Swift.abs(x)) + (decimals > 0 ? "." + String(repeating: "0", count: decimals) : ""))
        }
        let scaled = (x * scale).rounded()
        let magnitude = Swift.abs(scaled)
        var digits = magnitude < 9.0e18 ? String(UInt64(magnitude)) : String(format: "%.0f", magnitude)
        if decimals > 0 {
            if digits.count <= decimals { digits = String(repeating: "0", count: decimals + 1 - digits.count) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        return (scaled < 0, digits)
    }
}
