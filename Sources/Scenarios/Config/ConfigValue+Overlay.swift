/// Scenario overlays: policies, includes and `--set` change a configuration by path or by
/// merging another object over it.
extension ConfigValue {
    /// Returns a copy with the value at `path` (object keys) replaced or added, creating
    /// intermediate objects as needed. Used by scenario policies and `--set`.
    public func setting(_ path: ArraySlice<String>, to newValue: ConfigValue) -> ConfigValue {
        guard let key = path.first else { return newValue }
        var members: [Member]
        if case .object(let existing) = kind { members = existing } else { members = [] }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = members[index].value.setting(path.dropFirst(), to: newValue)
        } else {
            members.append(Member(key: key, value: ConfigValue(.null).setting(path.dropFirst(), to: newValue)))
        }
        return ConfigValue(.object(members), line: line, column: column)
    }

    /// Returns this object with `overlay`'s members merged in, recursively for objects;
    /// any other value in the overlay replaces the base value. An overlay object that names
    /// a different `type` or `policy` than the base replaces it whole: the fields of one
    /// distribution or debounce policy mean nothing to another; so does one with the same
    /// `type` and a field the base lacks (the same distribution in another form).
    public func merging(_ overlay: ConfigValue) -> ConfigValue {
        guard case .object(var members) = kind, case .object(let extra) = overlay.kind else { return overlay }
        for discriminator in ["type", "policy"] {
            if let replacement = overlay[discriminator], replacement.kind != self[discriminator]?.kind { return overlay }
        }
        // A distribution of the same type in another form ({type: "lognormal", mu, sigma}
        // over medianMs and p99Ms) replaces it whole too: every field of a distribution's
        // form is required, so a field the base lacks means the overlay switched forms.
        if overlay["type"] != nil, extra.contains(where: { self[$0.key] == nil }) { return overlay }
        for member in extra {
            if let index = members.firstIndex(where: { $0.key == member.key }) {
                members[index].value = members[index].value.merging(member.value)
            } else {
                members.append(member)
            }
        }
        return ConfigValue(.object(members), line: line, column: column)
    }
}
