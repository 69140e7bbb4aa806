// How a stream's 64-bit key is derived from (seed, replication, name), and how child streams
// are derived from a parent. These functions are part of the determinism contract: changing
// any constant here changes every number of every report, which the golden tests catch.

extension RandomStream {
    /// A child stream named `name`, for a sub-component that needs numbers of its own.
    ///
    /// The child depends only on the parent's identity (its seed, replication and name, or
    /// its own parent chain) and on `name`: not on how many numbers the parent has drawn,
    /// and deriving does not advance the parent. Deriving the same name twice gives the same
    /// stream twice.
    /// - Complexity: O(name.utf8.count)
    public func derived(_ name: String) -> RandomStream {
        RandomStream(key: RandomStream.childKey(parent: key, name: name))
    }

    /// The key of stream `name` in `replication` of a run seeded with `seed`.
    ///
    /// Each step feeds one input into a SplitMix64 step, which is a bijection of its 64-bit
    /// input: two different (seed, replication, name-hash) triples collide only by chance,
    /// with probability 2⁻⁶⁴.
    static func streamKey(seed: UInt64, replication: Int, name: String) -> UInt64 {
        var key = SplitMix64.mix(seed)
        key = SplitMix64.mix(key ^ UInt64(bitPattern: Int64(replication)))
        key = SplitMix64.mix(key ^ fnv1a64(name))
        return key
    }

    /// The key of the child `name` of the stream with key `parent`. The tag keeps children
    /// apart from top-level streams of the same name.
    static func childKey(parent: UInt64, name: String) -> UInt64 {
        let derivationTag: UInt64 = 0x6B65_7973_696D_2F2F  // "keysim//" in ASCII
        return SplitMix64.mix(SplitMix64.mix(parent ^ derivationTag) ^ fnv1a64(name))
    }

    /// The FNV-1a state `hash` carried on over the decimal digits of `number`, as
    /// `String(number)` writes them: a number below 10¹⁶ has its digits packed four bits
    /// each into one word, least significant in the highest nibble, then hashed from the most
    /// significant (no buffer, no division by a variable); others, and negative numbers, take
    /// the text.
    @inline(__always)
    static func fnv1a64(decimal number: Int, from hash: UInt64) -> UInt64 {
        guard number >= 0, number < 10_000_000_000_000_000 else { return fnv1a64(String(number), from: hash) }
        var value = UInt64(number)
        var packed: UInt64 = 0
        var count = 0
        repeat {
            packed = packed << 4 | value % 10
            value /= 10
            count += 1
        } while value > 0
        var hash = hash
        for _ in 0..<count {
            hash = fnv1a64(byte: 0x30 | UInt8(truncatingIfNeeded: packed & 0xF), from: hash)
            packed >>= 4
        }
        return hash
    }

    /// The FNV-1a state `hash` carried on over the UTF-8 bytes of `text`, read in place.
    @inline(__always)
    static func fnv1a64(_ text: String, from hash: UInt64) -> UInt64 {
        let fast = text.utf8.withContiguousStorageIfAvailable { bytes in
            var hash = hash
            for byte in bytes { hash = fnv1a64(byte: byte, from: hash) }
            return hash
        }
        if let fast { return fast }
        var hash = hash
        for byte in text.utf8 { hash = fnv1a64(byte: byte, from: hash) }
        return hash
    }

    /// One FNV-1a step: `byte` into the state `hash` (prime 0x100000001b3).
    @inline(__always)
    static func fnv1a64(byte: UInt8, from hash: UInt64) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// `mix(mix(seed) ^ replication)`: the part of a stream key that does not depend on the name.
    static func streamKeyBase(seed: UInt64, replication: Int) -> UInt64 {
        SplitMix64.mix(SplitMix64.mix(seed) ^ UInt64(bitPattern: Int64(replication)))
    }

    /// The 64-bit FNV-1a hash of the UTF-8 bytes of `text` (offset basis 0xcbf29ce484222325,
    /// prime 0x100000001b3), fixed forever unlike the standard library's per-process hashing.
    /// - Complexity: O(text.utf8.count)
    static func fnv1a64(_ text: String) -> UInt64 {
        fnv1a64(text, from: 0xCBF2_9CE4_8422_2325)
    }
}

/// SplitMix64 (Steele, Lea and Flood 2014, finaliser constants from Stafford's "Mix13"): a
/// 64-bit counter whose outputs pass through a bijective mixer. Used to expand one key into
/// the xoshiro state and to mix inputs into keys; never as a stream on its own.
struct SplitMix64 {
    /// The Weyl-sequence increment, 2⁶⁴ divided by the golden ratio, made odd.
    static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The counter.
    var state: UInt64

    /// The next output: advance the counter, then mix it.
    mutating func next() -> UInt64 {
        state &+= SplitMix64.increment
        return SplitMix64.finalize(state)
    }

    /// One SplitMix64 step applied to `x` as a fresh state: `finalize(x + increment)`.
    static func mix(_ x: UInt64) -> UInt64 {
        finalize(x &+ increment)
    }

    /// The SplitMix64 output function: a bijection of 64-bit words with strong avalanche.
    static func finalize(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
