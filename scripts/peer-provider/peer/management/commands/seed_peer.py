"""`manage.py seed_peer`: the person and the clients RiderKit's interoperability tests use.

Idempotent: every run puts the rows back to exactly this state (password included), so a run
directory reused after a test changed something starts from the same place.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from oauth2_provider.models import get_application_model

USERNAME = "ana@example.com"
PASSWORD = "correct horse battery staple"

Application = get_application_model()

# DOT stores one grant type per Application, so the browser flow and the device flow need a
# client each. Both are public (RFC 6749 §2.1: no secret, authenticated by nothing but
# client_id; "none" in RFC 7591 terms) and sign id_tokens with the provider's RS256 key.
CLIENTS = [
    {
        "client_id": "rider-cli",
        "name": "rider CLI",
        "authorization_grant_type": Application.GRANT_AUTHORIZATION_CODE,
        # A loopback IP redirect (RFC 8252 §7.3): DOT accepts any port at request time for
        # http://127.0.0.1 and http://[::1] registrations, so this one entry covers the CLI's
        # ephemeral listener. The path and query must still match exactly.
        "redirect_uris": "http://127.0.0.1/callback",
    },
    {
        "client_id": "rider-device",
        "name": "rider CLI (device)",
        "authorization_grant_type": Application.GRANT_DEVICE_CODE,
        "redirect_uris": "",
    },
]


class Command(BaseCommand):
    help = "Create or reset the test person and the rider-cli / rider-device clients."

    @transaction.atomic
    def handle(self, *args, **options):
        user, _ = get_user_model().objects.update_or_create(
            username=USERNAME,
            defaults={"email": USERNAME, "is_active": True},
        )
        user.set_password(PASSWORD)
        user.save()
        for client in CLIENTS:
            application, _ = Application.objects.update_or_create(
                client_id=client["client_id"],
                defaults={
                    "name": client["name"],
                    "client_type": Application.CLIENT_PUBLIC,
                    "authorization_grant_type": client["authorization_grant_type"],
                    "redirect_uris": client["redirect_uris"],
                    "post_logout_redirect_uris": "",
                    "client_secret": "",
                    "hash_client_secret": False,  # nothing to hash: a public client has no secret
                    "algorithm": Application.RS256_ALGORITHM,
                    # The consent page is shown every time (DOT also defaults
                    # REQUEST_APPROVAL_PROMPT to "force").
                    "skip_authorization": False,
                },
            )
            application.full_clean()  # DOT's own checks (redirect URI syntax, RS256 key present)
        self.stdout.write(f"seeded {USERNAME} (sub {user.pk}) and clients {', '.join(c['client_id'] for c in CLIENTS)}")
