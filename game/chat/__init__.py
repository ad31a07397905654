"""Chat: the quick phrases (the model is game.models.chat, the service game.chat.services)."""
