import VerifyCore

/// The `challenge` member of a start or resend (docs/CHALLENGES.md): `{"provider", "token"}` and
/// the providers' own members (App Attest's `key_id`, `client_data`; Play Integrity's
/// `package_name`), all strings. Malformed or
/// unknown members → 400 naming the member.
enum ChallengeJSON {
    static let members: Set<String> = ["provider", "token", "key_id", "client_data", "package_name"]
    static let maxMembers = members.count
    static let maxValueLength = 12_288

    static func parse(_ body: RequestBody) throws -> ChallengeSubmission? {
        guard let value = body.json["challenge"], value != .null else { return nil }
        guard case .object(let members) = value else {
            throw invalid("challenge", "must be an object with provider and token, not \(value.typeName)")
        }
        guard members.count <= maxMembers else { throw invalid("challenge", "has more than \(maxMembers) members") }
        var provider: String?
        var token: String?
        var fields: [String: String] = [:]
        for member in members {
            let name = "challenge." + member.key
            guard Self.members.contains(member.key) else {
                throw invalid("challenge", "has an unknown member; allowed: " + Self.members.sorted().joined(separator: ", "))
            }
            guard case .string(let text) = member.value else {
                throw invalid(name, "must be a string, not \(member.value.typeName)")
            }
            guard !text.isEmpty else { throw invalid(name, "must not be empty") }
            guard text.utf8.count <= maxValueLength else { throw invalid(name, "is longer than \(maxValueLength) bytes") }
            guard fields[member.key] == nil, !(member.key == "provider" && provider != nil), !(member.key == "token" && token != nil) else {
                throw invalid(name, "appears twice")
            }
            switch member.key {
            case "provider": provider = text
            case "token": token = text
            default: fields[member.key] = text
            }
        }
        guard let provider else { throw invalid("challenge.provider", "is required") }
        guard provider.utf8.count <= 32 else { throw invalid("challenge.provider", "is not a provider") }
        guard let token else { throw invalid("challenge.token", "is required") }
        return ChallengeSubmission(provider: provider, token: token, fields: fields)
    }

    static func invalid(_ field: String, _ problem: String) -> VerifyError {
        VerifyError(.invalidRequest, "\(field) \(problem)", details: ["field": .string(field)])
    }
}
