"""Serving the kiosk: uvicorn in front of the Flask app, the live pages' fan-out and the camera's
MJPEG view."""
