extension LineReader {
    /// The 0-based offset of the first byte of the first ill-formed UTF-8 sequence in
    /// `bytes`, or `nil` if all of `bytes` is valid UTF-8.
    ///
    /// Follows the Unicode definition of well-formed UTF-8 (Table 3-7): overlong forms,
    /// surrogates (U+D800–U+DFFF), code points above U+10FFFF, stray continuation bytes and
    /// sequences cut short are all invalid. Runs of ASCII are checked eight bytes at a time.
    /// - Complexity: O(n)
    public static func validateUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index < count {
            // ASCII fast path: no byte of the word has its high bit set.
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            guard index < count else { return nil }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The number of continuation bytes, and the allowed range of the first one, which
            // rules out overlongs, surrogates and values past U+10FFFF.
            let continuationCount: Int
            var secondLow: UInt8 = 0x80
            var secondHigh: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: continuationCount = 1
            case 0xE0: continuationCount = 2; secondLow = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: continuationCount = 2
            case 0xED: continuationCount = 2; secondHigh = 0x9F
            case 0xF0: continuationCount = 3; secondLow = 0x90
            case 0xF1...0xF3: continuationCount = 3
            case 0xF4: continuationCount = 3; secondHigh = 0x8F
            default: return index  // 0x80...0xC1 (stray continuation, overlong 2-byte), 0xF5...0xFF
            }
            guard index + continuationCount < count else { return index }
            let second = base[index + 1]
            guard second >= secondLow && second <= secondHigh else { return index }
            var offset = 2
            while offset <= continuationCount {
                guard base[index + offset] & 0xC0 == 0x80 else { return index }
                offset += 1
            }
            index += continuationCount + 1
        }
        return nil
    }
}
