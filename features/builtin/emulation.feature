@builtin
Feature: Built-in steps: emulation

  Scenario: Timezone, locale and user agent (a fresh context, before opening pages)
    Given I emulate the timezone "Asia/Tokyo"
    And I emulate the locale "fr-FR"
    And I emulate the user agent "ferridriver-bot/1.0"
    When I open "/environment.html"
    Then I expect the text of "#timezone" to equal "Asia/Tokyo"
    And I expect the text of "#language" to equal "fr-FR"
    And I expect the text of "#user-agent" to equal "ferridriver-bot/1.0"

  Scenario: Viewport, colour scheme, media, geolocation and permissions
    Given I open "/environment.html"
    When I set the viewport to 800 by 600
    Then I expect the text of "#viewport" to equal "800x600"
    When I emulate the color scheme "dark"
    And I emulate the media type "print"
    And I click "#refresh"
    Then I expect the text of "#scheme" to equal "dark"
    And I expect the text of "#media" to equal "print"
    When I set the geolocation to 48.8584, 2.2945
    And I click "#locate"
    Then I expect the text of "#location" to equal "48.8584, 2.2945"
    When I grant the permission "notifications"
    And I click "#refresh"
    Then I expect the text of "#notifications" to equal "granted"
