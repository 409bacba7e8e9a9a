// 5. Training loop: allocate once and hold, against free every step
TrainingLoop.run(TrainingLoop.Strategy.HOLD, 10).line()
TrainingLoop.run(TrainingLoop.Strategy.FREE_EVERY_STEP, 10).line()
