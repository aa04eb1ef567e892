"""The kiosk's Flask application: the app factory, the pages, the JSON API's blueprints, the one
error handler, the templates and static files."""
