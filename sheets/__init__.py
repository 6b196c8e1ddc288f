"""Datapad's Django project: settings, URLs and the apps that keep characters."""
