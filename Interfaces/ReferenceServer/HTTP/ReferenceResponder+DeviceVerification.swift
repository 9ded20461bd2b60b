import HTTPTypes
import Hummingbird

extension ReferenceResponder {
    /// `GET /device`: the verification page (RFC 8628 §3.3), its code field filled from the
    /// `user_code` query parameter of `verification_uri_complete`.
    func devicePage(_ request: Request) -> Response {
        guard let query = try? query(of: request) else {
            return ProviderPage.response(
                DeviceVerificationPage.form(message: "The address is not valid; type the code instead."), status: .badRequest)
        }
        return ProviderPage.response(DeviceVerificationPage.form(userCode: Self.shownUserCode(query["user_code"])))
    }

    /// `POST /device`: a person approves or denies a user code, signing in with their email and
    /// password — the same check and login throttle as the password grant. Both answers need
    /// the credentials, so a stranger who guesses a code cannot deny someone else's sign-in.
    /// Every outcome is a page: the result, or the form again saying what went wrong.
    /// - Parameter client: The peer's address, for the login throttle.
    func deviceDecision(_ request: Request, client: String) async -> Response {
        let form: FormFields
        do {
            guard mediaType(of: request) == Self.formMediaType else {
                return Self.devicePage(message: "The form must be sent as \(Self.formMediaType).", status: .unsupportedMediaType)
            }
            form = try await self.form(of: request)
        } catch let problem as APIProblem {
            return Self.devicePage(message: problem.detail, status: problem.status)
        } catch {
            return Self.devicePage(message: "The form could not be read; try again.", status: .badRequest)
        }
        let userCode = Self.shownUserCode(form["user_code"])
        let email = String((form["email"] ?? "").prefix(320))
        func page(_ message: String, _ status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
            Self.devicePage(userCode: userCode, email: email, message: message, status: status, headers: headers)
        }
        guard let typedCode = form["user_code"], !typedCode.isEmpty else { return page("Enter the code your terminal shows.", .badRequest) }
        guard !email.isEmpty, let password = form["password"], !password.isEmpty else {
            return page("Enter your email and password.", .badRequest)
        }
        let approve: Bool
        switch form["action"] {
        case "approve"?: approve = true
        case "deny"?: approve = false
        default: return page("Choose Approve or Deny.", .badRequest)
        }
        switch await store.decideDeviceAuthorization(userCode: typedCode, email: email, password: password,
                                                     approve: approve, client: client) {
        case .approved:
            return ProviderPage.response(DeviceVerificationPage.done(approved: true))
        case .denied:
            return ProviderPage.response(DeviceVerificationPage.done(approved: false))
        case .unknownCode:
            return page("That code is not valid. Check the code your terminal shows and try again.", .badRequest)
        case .expired:
            return page("That code has expired. Start the sign-in again on your device.", .badRequest)
        case .alreadyDecided:
            return page("That code has already been answered.", .badRequest)
        case .refused:
            return page("The email or password is wrong.", .forbidden)
        case .throttled(let wait):
            return page("Too many failed sign-ins; try again in \(wait) s.", .tooManyRequests,
                        headers: [.retryAfter: String(wait)])
        }
    }

    private static func devicePage(userCode: String = "", email: String = "", message: String,
                                   status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        ProviderPage.response(DeviceVerificationPage.form(userCode: userCode, email: email, message: message),
                                        status: status, headers: headers)
    }

    /// What the code field shows: a valid code as `XXXX-XXXX`, anything else as typed (the page
    /// escapes it), cut to the field's length.
    private static func shownUserCode(_ typed: String?) -> String {
        guard let typed else { return "" }
        return UserCode.canonical(typed).map(UserCode.display) ?? String(typed.prefix(64))
    }
}
