extension ScenarioLoader {
    /// The fields of each debounce policy kind (`debounce.policy`) besides `policy`, in the
    /// order of docs/models.md: which `debounce.*` fields a sweep point of that kind takes.
    public static let debounceFields: [(kind: String, fields: [String])] = [
        ("sentence-aware", ["sentenceEndMs", "otherwiseMs"]),
        ("fixed", ["delayMs"]),
        ("edges", ["waitMs", "leading", "trailing", "maxWaitMs"]),
        ("throttle", ["intervalMs"]),
        ("boundary", ["on", "delayMs"]),
        ("adaptive", ["quantile", "scale", "minMs", "maxMs", "window", "warmup", "sentenceEndMs"]),
    ]

    /// Whether the dotted field `path` means something to a scenario whose debounce policy
    /// is of `kind`: every field outside `debounce`, `debounce.policy` itself, and the kind's
    /// own fields. A `debounce` field no kind has (a misspelling) applies everywhere, so that
    /// loading reports it as the unknown field it is.
    public static func field(_ path: String, appliesToDebounce kind: String) -> Bool {
        let keys = path.split(separator: ".", omittingEmptySubsequences: false)
        guard keys.count >= 2, keys[0] == "debounce", keys[1] != "policy" else { return true }
        let field = String(keys[1])
        guard debounceFields.contains(where: { $0.fields.contains(field) }) else { return true }
        return debounceFields.first { $0.kind == kind }?.fields.contains(field) ?? false
    }

    /// Field overrides in the order they are applied: those that set a discriminator
    /// (a `policy` or a `type`, such as `debounce.policy` or `network.roundTrip.type`) first,
    /// then the others, each group in the order given. Setting a discriminator to another
    /// value replaces its object with just that member — the fields of one debounce policy
    /// or distribution mean nothing to another, as when a policy overlay switches kinds — and
    /// the overrides after it then give the new kind's fields.
    static func applying(_ overrides: [(keys: [String], value: ConfigValue)], to root: ConfigValue) -> ConfigValue {
        let isDiscriminator = { (keys: [String]) in keys.count >= 2 && (keys.last == "policy" || keys.last == "type") }
        var resolved = root
        for override in overrides.filter({ isDiscriminator($0.keys) }) {
            let parent = Array(override.keys.dropLast())
            var current: ConfigValue? = resolved
            for key in parent { current = current?[key] }
            // A debounce object without `policy` is the seed's sentence-aware policy.
            let existing = current?[override.keys.last!]?.kind ?? (parent == ["debounce"] ? .string("sentence-aware") : nil)
            var parentIsObject = false
            if case .object? = current?.kind { parentIsObject = true }
            if let existing, parentIsObject, existing != override.value.kind {
                resolved = resolved.setting(parent[...], to: ConfigValue(.object([ConfigValue.Member(key: override.keys.last!, value: override.value)])))
            } else {
                resolved = resolved.setting(override.keys[...], to: override.value)
            }
        }
        for override in overrides where !isDiscriminator(override.keys) {
            resolved = resolved.setting(override.keys[...], to: override.value)
        }
        return resolved
    }
}
