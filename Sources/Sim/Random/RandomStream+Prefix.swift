extension RandomStream {
    /// The streams of one replication whose names start with one prefix, made without building
    /// their names: `stream(name)` is `RandomStream(seed:replication:name: prefix + name)`, bit
    /// for bit, from the prefix's hash state carried on over `name` alone.
    ///
    /// A keyboard session opens two dozen streams named `trace<key>/<name>`; building each
    /// name, then hashing it, cost more than the rest of the session's set-up.
    public struct Prefix: Sendable {
        /// `streamKeyBase(seed:replication:)`: the part of every key that ignores the name.
        let base: UInt64
        /// The FNV-1a state after the prefix's bytes.
        let hash: UInt64
        #if KEYSIM_INTERNAL_CHECKS
        /// The prefix's inputs in full, so that every key is checked against the named stream's.
        let seed: UInt64
        let replication: Int
        let text: String
        #endif

        /// The empty prefix of `replication` of a run seeded with `seed`.
        /// - Precondition: `replication >= 0`.
        public init(seed: UInt64, replication: Int) {
            precondition(replication >= 0, "replication must be >= 0, got \(replication)")
            base = RandomStream.streamKeyBase(seed: seed, replication: replication)
            hash = 0xCBF2_9CE4_8422_2325
            #if KEYSIM_INTERNAL_CHECKS
            self.seed = seed
            self.replication = replication
            text = ""
            #endif
        }

        private init(_ prefix: Prefix, hash: UInt64, appending text: @autoclosure () -> String) {
            base = prefix.base
            self.hash = hash
            #if KEYSIM_INTERNAL_CHECKS
            seed = prefix.seed
            replication = prefix.replication
            self.text = prefix.text + text()
            #endif
        }

        /// This prefix followed by `text`.
        /// - Complexity: O(text.utf8.count), no allocation.
        public func appending(_ text: String) -> Prefix {
            Prefix(self, hash: RandomStream.fnv1a64(text, from: hash), appending: text)
        }

        /// This prefix followed by the decimal digits of `number`, as `String(number)` writes them.
        public func appending(decimal number: Int) -> Prefix {
            Prefix(self, hash: RandomStream.fnv1a64(decimal: number, from: hash), appending: String(number))
        }

        /// The key of the stream named this prefix followed by `name`.
        /// - Complexity: O(name.utf8.count), no allocation.
        func key(_ name: String) -> UInt64 {
            let key = SplitMix64.mix(base ^ RandomStream.fnv1a64(name, from: hash))
            #if KEYSIM_INTERNAL_CHECKS
            precondition(key == RandomStream.streamKey(seed: seed, replication: replication, name: text + name),
                         "the key of stream \(text + name) from its prefix's hash")
            #endif
            return key
        }

        /// The stream named this prefix followed by `name`.
        public func stream(_ name: String) -> RandomStream {
            RandomStream(key: key(name))
        }
    }
}
