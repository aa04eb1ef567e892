"""The parlor server's Flask app: its factory and guard, sign-ins, the kiosks' and staff's JSON
endpoints and the counter's pages."""
