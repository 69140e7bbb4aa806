/// Classes of hosted models the cloud checker may run on, each named after the model whose
/// published figures it carries (`cloud.model.preset`, `cloud.pricing.preset`; sources and
/// dates in `docs/models.md`, "Model and price presets").
public enum ModelClass: String, Sendable, Equatable, CaseIterable {
    /// The smallest, fastest tier: OpenAI's GPT-4.1 nano.
    case nanoClass = "nano-class"
    /// The next tier: OpenAI's GPT-4.1 mini.
    case miniClass = "mini-class"
    /// Anthropic's small tier: Claude Haiku 4.5.
    case haikuClass = "haiku-class"
}
