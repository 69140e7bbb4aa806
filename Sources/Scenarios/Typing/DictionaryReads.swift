import Sim

/// The dictionaries one scenario load has read, by resolved path: a scenario is decoded once
/// for the policy it runs and once more for each other policy it defines (so that a misspelt
/// field in any of them is reported now), and each decode would otherwise read and parse the
/// same dictionary file again. Owned by the load that creates it; never shared between loads,
/// so that a file edited between two runs is read afresh.
final class DictionaryReads {
    private var read: [String: WordDictionary] = [:]

    /// The dictionary at `path`, read on the first call for that path.
    /// - Throws: what `DictionaryFile.read(path:)` throws (and again on every call: a failed
    ///   read is not kept).
    func dictionary(at path: String) throws(InputError) -> WordDictionary {
        if let known = read[path] { return known }
        let dictionary = try DictionaryFile.read(path: path)
        read[path] = dictionary
        return dictionary
    }
}
